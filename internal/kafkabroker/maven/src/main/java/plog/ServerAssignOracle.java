package plog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.internals.LogContext;
import org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import org.apache.kafka.coordinator.group.assignor.RangeAssignor;
import org.apache.kafka.coordinator.group.assignor.UniformAssignor;
import org.apache.kafka.coordinator.group.modern.Assignment;
import org.apache.kafka.coordinator.group.modern.GroupSpecImpl;
import org.apache.kafka.coordinator.group.modern.MemberSubscriptionAndAssignmentImpl;
import org.apache.kafka.timeline.SnapshotRegistry;
import org.apache.kafka.timeline.TimelineHashMap;

/**
 * The server-side assignment oracle of plog's tests: the group
 * coordinator's own UniformAssignor and RangeAssignor
 * (kafka-group-coordinator 4.4.0), for the consumer group protocol.
 *
 * Reads one case a line on stdin, as JSON:
 * {"assignor": "uniform|range", "topics": {"t": {"id": "base64 uuid", "partitions": 3}},
 *  "members": [{"id": "m1", "instance": "", "topics": ["t", "gone"], "target": [["t", 0]]}]}
 * ("heterogeneous": true forces that subscription type) and prints one line a case: {"m1": [["t", 0], ...], ...}, or {"error": "..."}.
 *
 * The assignor is fed as the coordinator's TargetAssignmentBuilder feeds
 * it: the members in a HashMap keyed by member id, put in in the order of
 * the group's TimelineHashMap of members (given the members in the order
 * listed), each member's target as Assignment.fromRecord reads it from a
 * record listing the target in the order given (a HashMap of topic id to
 * new HashSet<>(partitions)), its subscription the ids of the topics that
 * exist in the order of new HashSet<>(names), the subscription type
 * computed from the names as ModernGroup.subscriptionType does. The answer
 * lists each member's partitions in the order the assignor's map and sets
 * iterate: the order of the target-assignment record the coordinator
 * writes (GroupCoordinatorRecordHelpers).
 */
public final class ServerAssignOracle {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        AssignOracle.answerLines(ServerAssignOracle::assign);
    }

    private static ConsumerGroupPartitionAssignor assignor(String name) {
        switch (name) {
            case "uniform": return new UniformAssignor();
            case "range": return new RangeAssignor();
            default: throw new IllegalArgumentException("unknown assignor " + name);
        }
    }

    private static ObjectNode assign(JsonNode c) {
        Map<String, Uuid> ids = new HashMap<>();
        Map<Uuid, String> names = new HashMap<>();
        Map<Uuid, Integer> counts = new HashMap<>();
        c.get("topics").fields().forEachRemaining(e -> {
            Uuid id = Uuid.fromString(e.getValue().get("id").asText());
            ids.put(e.getKey(), id);
            names.put(id, e.getKey());
            counts.put(id, e.getValue().get("partitions").asInt());
        });
        // The group's members (ModernGroup.members), put in in the order given.
        TimelineHashMap<String, JsonNode> joined = new TimelineHashMap<>(new SnapshotRegistry(new LogContext()), 0);
        for (JsonNode m : c.get("members")) joined.put(m.get("id").asText(), m);

        Map<String, MemberSubscriptionAndAssignmentImpl> members = new HashMap<>();
        Map<Uuid, Map<Integer, String>> inverted = new HashMap<>();
        Map<String, Integer> subscribers = new HashMap<>();
        for (Map.Entry<String, JsonNode> e : joined.entrySet()) {
            JsonNode m = e.getValue();
            // ConsumerGroupMember.Builder: subscribedTopicNames = new HashSet<>(list);
            // TopicIds iterates it, leaving out names it cannot resolve.
            List<String> topicList = new ArrayList<>();
            for (JsonNode t : m.get("topics")) topicList.add(t.asText());
            Set<Uuid> subscribed = new LinkedHashSet<>();
            for (String t : new HashSet<>(topicList)) {
                subscribers.merge(t, 1, Integer::sum);
                if (ids.containsKey(t)) subscribed.add(ids.get(t));
            }
            LinkedHashMap<String, List<Integer>> target = new LinkedHashMap<>();
            if (m.has("target")) {
                for (JsonNode tp : m.get("target")) {
                    target.computeIfAbsent(tp.get(0).asText(), k -> new ArrayList<>()).add(tp.get(1).asInt());
                }
            }
            // Assignment.fromRecord over a record listing the target in the order given.
            Map<Uuid, Set<Integer>> partitions = target.entrySet().stream().collect(Collectors.toMap(
                t -> ids.get(t.getKey()),
                t -> new HashSet<>(t.getValue())));
            partitions.forEach((id, ps) -> ps.forEach(p -> inverted.computeIfAbsent(id, k -> new HashMap<>()).put(p, e.getKey())));
            String instance = m.has("instance") ? m.get("instance").asText() : "";
            members.put(e.getKey(), new MemberSubscriptionAndAssignmentImpl(
                Optional.empty(),
                instance.isEmpty() ? Optional.empty() : Optional.of(instance),
                subscribed,
                new Assignment(partitions)));
        }
        SubscriptionType type = SubscriptionType.HOMOGENEOUS;
        for (int n : subscribers.values()) {
            if (n != members.size()) type = SubscriptionType.HETEROGENEOUS;
        }
        if (c.path("heterogeneous").asBoolean(false)) type = SubscriptionType.HETEROGENEOUS;
        SubscribedTopicDescriber describer = new SubscribedTopicDescriber() {
            @Override
            public int numPartitions(Uuid topicId) {
                return counts.getOrDefault(topicId, -1);
            }

            @Override
            public Set<String> racksForPartition(Uuid topicId, int partition) {
                return Set.of();
            }
        };
        GroupAssignment out = assignor(c.get("assignor").asText()).assign(
            new GroupSpecImpl(java.util.Collections.unmodifiableMap(members), type, inverted), describer);
        ObjectNode result = JSON.createObjectNode();
        for (String id : members.keySet()) {
            ArrayNode tps = result.putArray(id);
            MemberAssignment a = out.members().get(id);
            if (a == null) continue;
            a.partitions().forEach((topicId, ps) -> {
                for (int p : ps) {
                    ArrayNode tp = tps.addArray();
                    tp.add(names.get(topicId));
                    tp.add(p);
                }
            });
        }
        return result;
    }
}

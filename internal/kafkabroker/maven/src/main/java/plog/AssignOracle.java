package plog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * The assignment oracle of plog's tests: Kafka's own client assignors.
 *
 * Reads one case a line on stdin, as JSON:
 * {"strategy": "range|roundrobin|sticky|cooperative-sticky", "partitions": {"t": 3},
 *  "members": [{"id": "c1", "instance": "", "topics": ["t"], "owned": [["t", 0]], "generation": 1}]}
 * and prints one line a case: {"c1": [["t", 0], ...], ...}, or {"error": "..."}.
 *
 * Members are given to the assignor keyed by member id, as the group
 * coordinator does; a static member's group.instance.id is passed in its
 * Subscription. The sticky assignors learn what a member owned the way the
 * client does: the member's own assignor instance is told its previous
 * assignment (onAssignment) and writes its subscription user data from it.
 */
public final class AssignOracle {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        answerLines(AssignOracle::assign);
    }

    /** What answerLines asks of each case. */
    interface Answer {
        ObjectNode answer(JsonNode c) throws Exception;
    }

    /**
     * Answers one JSON case a line on stdin with one JSON line on stdout,
     * {"error": "..."} for a case that failed.
     */
    static void answerLines(Answer answer) throws Exception {
        // The answers go to stdout, one a line; whatever else writes there
        // (the assignors log through SLF4J to the console, an error for a
        // partition claimed twice in one generation) goes to stderr.
        PrintStream answers = System.out;
        System.setOut(System.err);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            String out;
            try {
                out = JSON.writeValueAsString(answer.answer(JSON.readTree(line)));
            } catch (Exception e) {
                ObjectNode err = JSON.createObjectNode();
                err.put("error", String.valueOf(e));
                out = JSON.writeValueAsString(err);
            }
            answers.println(out);
            answers.flush();
        }
    }

    private static ConsumerPartitionAssignor assignor(String strategy) {
        switch (strategy) {
            case "range": return new RangeAssignor();
            case "roundrobin": return new RoundRobinAssignor();
            case "sticky": return new StickyAssignor();
            case "cooperative-sticky": return new CooperativeStickyAssignor();
            default: throw new IllegalArgumentException("unknown strategy " + strategy);
        }
    }

    private static ObjectNode assign(JsonNode c) {
        String strategy = c.get("strategy").asText();
        Node node = new Node(0, "127.0.0.1", 9092);
        List<PartitionInfo> infos = new ArrayList<>();
        c.get("partitions").fields().forEachRemaining(e -> {
            for (int p = 0; p < e.getValue().asInt(); p++) {
                infos.add(new PartitionInfo(e.getKey(), p, node, new Node[] {node}, new Node[] {node}));
            }
        });
        Cluster cluster = new Cluster("plog", List.of(node), infos, new HashSet<>(), new HashSet<>());

        Map<String, Subscription> subscriptions = new HashMap<>();
        for (JsonNode m : c.get("members")) {
            String id = m.get("id").asText();
            List<String> topics = new ArrayList<>();
            m.get("topics").forEach(t -> topics.add(t.asText()));
            List<TopicPartition> owned = new ArrayList<>();
            if (m.has("owned")) {
                m.get("owned").forEach(tp -> owned.add(new TopicPartition(tp.get(0).asText(), tp.get(1).asInt())));
            }
            int generation = m.has("generation") ? m.get("generation").asInt() : -1;
            String instance = m.has("instance") && !m.get("instance").asText().isEmpty() ? m.get("instance").asText() : null;
            // The member's own assignor, told what it got in its last
            // generation, writes the user data it would send.
            ConsumerPartitionAssignor own = assignor(strategy);
            if (!owned.isEmpty() || generation >= 0) {
                own.onAssignment(new Assignment(owned),
                    new ConsumerGroupMetadata("plog", Math.max(generation, 0), id, Optional.ofNullable(instance)));
            }
            ByteBuffer userData = own.subscriptionUserData(new HashSet<>(topics));
            Subscription sub = new Subscription(topics, userData, owned, generation, Optional.empty());
            sub.setGroupInstanceId(Optional.ofNullable(instance));
            subscriptions.put(id, sub);
        }
        Map<String, Assignment> result = assignor(strategy).assign(cluster, new GroupSubscription(subscriptions)).groupAssignment();
        ObjectNode out = JSON.createObjectNode();
        List<String> ids = new ArrayList<>(result.keySet());
        Collections.sort(ids);
        for (String id : ids) {
            List<TopicPartition> tps = new ArrayList<>(result.get(id).partitions());
            tps.sort((a, b) -> a.topic().equals(b.topic()) ? Integer.compare(a.partition(), b.partition()) : a.topic().compareTo(b.topic()));
            ArrayNode arr = out.putArray(id);
            for (TopicPartition tp : tps) {
                ArrayNode pair = arr.addArray();
                pair.add(tp.topic());
                pair.add(tp.partition());
            }
        }
        return out;
    }
}

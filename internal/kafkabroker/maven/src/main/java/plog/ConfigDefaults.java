package plog;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.server.config.AbstractKafkaConfig;
import org.apache.kafka.storage.internals.log.LogConfig;

/**
 * Kafka's own config definitions, the oracle of the playground's config
 * registry (core/config_registry.go): every config of a topic (LogConfig),
 * a broker (AbstractKafkaConfig), a consumer (ConsumerConfig) and a
 * producer (ProducerConfig), one JSON line each:
 * {"scope": "topic", "name": "segment.bytes", "default": "1073741824", "min": "1048576"}.
 * A list's default is written comma-separated; "default" is absent when
 * Kafka has none, "min" and "max" when its validator is not a range.
 */
public final class ConfigDefaults {
    private static final Pattern RANGE = Pattern.compile("^\\[([-0-9.]+)?,\\.\\.\\.(?:,([-0-9.]+))?\\]$");

    public static void main(String[] args) throws Exception {
        Map<String, ConfigDef> defs = new LinkedHashMap<>();
        defs.put("topic", LogConfig.configDefCopy());
        defs.put("broker", AbstractKafkaConfig.CONFIG_DEF);
        defs.put("consumer", ConsumerConfig.configDef());
        defs.put("producer", ProducerConfig.configDef());
        ObjectMapper json = new ObjectMapper();
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, ConfigDef> scope : defs.entrySet()) {
            for (ConfigDef.ConfigKey key : scope.getValue().configKeys().values()) {
                ObjectNode line = json.createObjectNode();
                line.put("scope", scope.getKey());
                line.put("name", key.name);
                Object value = key.defaultValue;
                if (value != null && value != ConfigDef.NO_DEFAULT_VALUE) {
                    line.put("default", value instanceof List<?> list ? String.join(",", list.stream().map(String::valueOf).toList())
                            : value instanceof Class<?> c ? c.getName() : String.valueOf(value));
                }
                if (key.validator != null) {
                    Matcher m = RANGE.matcher(key.validator.toString());
                    if (m.matches()) {
                        if (m.group(1) != null) line.put("min", m.group(1));
                        if (m.group(2) != null) line.put("max", m.group(2));
                    }
                }
                out.append(json.writeValueAsString(line)).append('\n');
            }
        }
        System.out.print(out);
    }
}

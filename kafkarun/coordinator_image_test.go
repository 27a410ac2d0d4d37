package kafkarun

import "testing"

// offsetsPartition is Kafka's: Java's String.hashCode of the group id,
// through Utils.abs, modulo the partitions of __consumer_offsets. The
// hashes are what Java 17 gives ("polygenelubricants" hashes to Integer.MIN_VALUE,
// which Utils.abs makes 0; "é" is one UTF-16 unit, "𝄞" two).
func TestOffsetsPartitionIsKafkas(t *testing.T) {
	for _, c := range []struct {
		group      string
		partitions int
		want       int
	}{
		{"hello", 50, 99162322 % 50},
		{"g", 50, 103 % 50},
		{"polygenelubricants", 50, 0},
		{"orders-group", 7, 403968617 % 7}, // hashCode -403968617
		{"abcdefghij", 50, 634317659 % 50}, // hashCode -634317659
		{"é", 50, 233 % 50},
		{"𝄞", 50, 1772394 % 50},
		{"", 50, 0},
	} {
		if got := offsetsPartition(c.group, c.partitions); got != c.want {
			t.Errorf("offsetsPartition(%q, %d) = %d, want %d", c.group, c.partitions, got, c.want)
		}
	}
}

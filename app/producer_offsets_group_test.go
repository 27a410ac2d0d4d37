package app

import (
	"strings"
	"testing"

	"plog/core"
)

// Send offsets sends, unless the learner picks another, the group whose
// name begins the producer's transactional.id: lesson 20's billing-0 is
// billing's, and the card defaulted to audit, the first group.
func TestSendOffsetsDefaultsToTheProducersGroup(t *testing.T) {
	card := func(txnID, chosen string, groups ...string) *ProducerCard {
		c := &ProducerCard{Groups: groups, group: chosen}
		c.Producer.Name = "out-1"
		c.Producer.Config = core.ProducerConfig{TransactionalID: txnID}
		return c
	}
	for _, c := range []struct {
		card *ProducerCard
		want string
	}{
		{card("billing-0", "", "audit", "billing"), "billing"},
		{card("billing-0", "", "audit", "bill", "billing"), "billing"},
		{card("billing-0", "audit", "audit", "billing"), "audit"},
		{card("shop-tx", "", "audit", "billing"), "audit"},
		{card("billing-0", "gone", "audit", "billing"), "billing"},
	} {
		if got := c.card.offsetsGroup(); got != c.want {
			t.Errorf("transactional.id %s, chosen %q, groups %v: offsets of %q, want %q",
				c.card.Producer.Config.TransactionalID, c.card.group, c.card.Groups, got, c.want)
		}
		if line, _ := c.card.txnLine("send-offsets"); !strings.HasSuffix(line, "group="+c.want) {
			t.Errorf("Send offsets writes %q, want group=%s", line, c.want)
		}
	}
}

package scenario

// The share group commands' lines for TestFlagWordNamesRoundTrip.
func init() {
	nameTemplates[CmdShareJoin] = []string{"share-join NAME NAME topics=NAME", "share-join NAME NAME topics=NAME share.acknowledgement.mode=explicit max.poll.records=3"}
	nameTemplates[CmdSharePoll] = []string{"share-poll NAME NAME max=2"}
	nameTemplates[CmdAcknowledge] = []string{"acknowledge NAME NAME accept", "acknowledge NAME NAME release NAME/0 offsets=1-3"}
	nameTemplates[CmdShareLeave] = []string{"share-leave NAME NAME"}
}

package main

// groupDemoParts are the demo's consumer group parts.
func groupDemoParts() []demoPart { return nil }

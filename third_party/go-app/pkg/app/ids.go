package app

import (
	"fmt"
	"math/rand/v2"
)

// newID is a random id, for a device (DeviceID) and a store (its broadcast
// messages say which store sent them): 128 random bits, written as a UUID
// is. The release drew a UUID of github.com/google/uuid, which links
// crypto/md5, crypto/sha1 and crypto/rand (PLOG.md); neither id is a
// secret here, since plog's copy encrypts nothing.
func newID() string {
	a, b := rand.Uint64(), rand.Uint64()
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", a>>32, a>>16&0xffff, a&0xffff, b>>48, b&0xffffffffffff)
}

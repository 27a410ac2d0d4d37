package app

import "github.com/maxence-charriere/go-app/v9/pkg/errors"

// plog's copy has no encryption: the release's AES-GCM (crypto/aes,
// crypto/cipher, crypto/rand) linked Go's FIPS 140 module into every wasm,
// and plog never calls Context.Encrypt or Context.Decrypt, nor persists a
// State with the Encrypt option (PLOG.md).
var errNoEncryption = errors.New("encryption is not in plog's copy of go-app")

func encrypt(key string, v []byte) ([]byte, error) { return nil, errNoEncryption }

func decrypt(key string, v []byte) ([]byte, error) { return nil, errNoEncryption }

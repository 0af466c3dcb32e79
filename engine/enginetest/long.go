package enginetest

import (
	"os"
	"testing"
)

// LongEnv names the environment variable that asks for the long runs:
// PEGS_LONG=1 go test ./... (as .ci/run does) runs the checks that take
// tens of seconds to minutes each, such as the published figures of the
// large boards, which a plain go test ./... leaves out.
const LongEnv = "PEGS_LONG"

// Long skips t unless LongEnv is 1, and always under -short; why says
// what the run takes.
func Long(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: " + why)
	}
	if os.Getenv(LongEnv) != "1" {
		t.Skipf("%s; %s=1 runs it (as .ci/run does)", why, LongEnv)
	}
}

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

// LongRuns reports whether the long runs are asked for: LongEnv is 1 and
// the tests do not run with -short. A test that checks on a smaller
// game without them asks it.
func LongRuns() bool {
	return !testing.Short() && os.Getenv(LongEnv) == "1"
}

// Long skips t unless the long runs are asked for (see LongRuns); why
// says what the run takes.
func Long(t testing.TB, why string) {
	t.Helper()
	if !LongRuns() {
		t.Skipf("%s; %s=1 go test runs it (as .ci/run does)", why, LongEnv)
	}
}

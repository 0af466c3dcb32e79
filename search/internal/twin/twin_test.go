package twin

import (
	"errors"
	"fmt"
	"testing"
)

type inner struct {
	What string
	Need int64
}

func (e *inner) Error() string      { return fmt.Sprintf("%s needs %d", e.What, e.Need) }
func (e *inner) As(target any) bool { return As(e, target) }

type public struct {
	What string
	Need int64
}

func (e *public) Error() string { return (*inner)(e).Error() }

type other struct{ What string }

func (e *other) Error() string { return e.What }

func TestAs(t *testing.T) {
	err := fmt.Errorf("layer 28: %w", &inner{What: "a table", Need: 8})
	var p *public
	if !errors.As(err, &p) {
		t.Fatalf("errors.As(%v, *public) = false, want true", err)
	}
	if p.What != "a table" || p.Need != 8 {
		t.Errorf("got %+v, want the inner error's fields", p)
	}
	p.Need = 9 // the same error: its message changes
	if got, want := errors.Unwrap(err).Error(), "a table needs 9"; got != want {
		t.Errorf("after setting the twin's field: %q, want %q", got, want)
	}
	var o *other
	if errors.As(err, &o) {
		t.Errorf("errors.As(%v, *other) = true, want false: its fields differ", err)
	}
	var in *inner
	if !errors.As(err, &in) || in.Need != 9 {
		t.Errorf("errors.As(*inner) = %v, want the inner error", in)
	}
}

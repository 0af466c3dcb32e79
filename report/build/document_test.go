package build

import (
	"bytes"
	"strings"
	"testing"
)

// TestContents checks that the contents of both the Markdown and the HTML
// link each section's heading by the id GitHub gives it.
func TestContents(t *testing.T) {
	d := &Document{Title: "t", Intro: "i", Sections: []Section{{Title: "Boards"}, {Title: "State-space profiles"}, {Title: "Levels, graded (1..5)"}}}
	var md, html bytes.Buffer
	if err := d.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1. [Boards](#1-boards)\n", "2. [State-space profiles](#2-state-space-profiles)\n", "3. [Levels, graded (1..5)](#3-levels-graded-15)\n"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("index.md lacks %q:\n%s", want, md.String())
		}
	}
	for _, want := range []string{`<a href="#2-state-space-profiles">`, `<h2 id="2-state-space-profiles">2. State-space profiles</h2>`, `<h2 id="3-levels-graded-15">`} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("index.html lacks %q:\n%s", want, html.String())
		}
	}
}

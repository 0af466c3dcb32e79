package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTableFormats(t *testing.T) {
	tbl := Table{Title: "t", Header: []string{"board", "holes"}}
	tbl.Add("english", "33")
	tbl.Add("french, big", "37")
	var buf bytes.Buffer
	if err := tbl.Write(&buf, CSV); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(rows) != 3 || rows[2][0] != "french, big" {
		t.Errorf("CSV rows %q, %v", rows, err)
	}
	buf.Reset()
	if err := tbl.Write(&buf, JSON); err != nil {
		t.Fatal(err)
	}
	var objs []map[string]string
	if err := json.Unmarshal(buf.Bytes(), &objs); err != nil || len(objs) != 2 || objs[0]["holes"] != "33" {
		t.Errorf("JSON %v, %v", objs, err)
	}
	for _, f := range []Format{Text, Markdown} {
		buf.Reset()
		if err := tbl.Write(&buf, f); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "english") || !strings.Contains(buf.String(), "holes") {
			t.Errorf("%v table lacks its cells:\n%s", f, buf.String())
		}
	}
	if _, err := ParseFormat("yaml"); err == nil {
		t.Error("ParseFormat(yaml): no error")
	}
}

// TestCounts checks that text, Markdown and HTML group the digits of the
// integers in count columns, and only those, while CSV and JSON keep them
// plain.
func TestCounts(t *testing.T) {
	tbl := Table{Header: []string{"level", "start", "reachable", "solutions"}, Counts: []string{"reachable", "solutions"}}
	tbl.Add("2024", "13", "23475688", "577116156815309849672")
	tbl.Add("b", "d4", "-1234567", "not counted")
	tbl.Add("c", "6-16", "", "007")
	tbl.Add("d", "1 4 6", "12345 MiB", "1: 6816 each")
	tbl.Add("e", "1000", "0.5", "2.5e+06")
	want := [][]string{
		{"2024", "13", "23,475,688", "577,116,156,815,309,849,672"},
		{"b", "d4", "-1,234,567", "not counted"},
		{"c", "6-16", "", "007"},
		{"d", "1 4 6", "12,345 MiB", "1: 6816 each"},
		{"e", "1000", "0.5", "2.5e+06"},
	}
	if diff := cmp.Diff(want, tbl.Shown()); diff != "" {
		t.Errorf("Shown (-want +got):\n%s", diff)
	}
	for _, f := range []Format{Text, Markdown} {
		var buf bytes.Buffer
		if err := tbl.Write(&buf, f); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "577,116,156,815,309,849,672") || strings.Contains(buf.String(), "2,024") {
			t.Errorf("%v table groups the wrong cells:\n%s", f, buf.String())
		}
	}
	for _, f := range []Format{CSV, JSON} {
		var buf bytes.Buffer
		if err := tbl.Write(&buf, f); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "577116156815309849672") || strings.Contains(buf.String(), ",688") {
			t.Errorf("%v table is not plain:\n%s", f, buf.String())
		}
	}
}

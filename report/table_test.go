package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
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

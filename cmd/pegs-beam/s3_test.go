package main

import (
	"context"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// TestS3Storage checks a run whose partitions go through Beam's s3
// filesystem, to a fake S3 server (gofakes3) on the loopback: the JSON is
// what pegs explore writes in process, and the run's partition files are
// in the bucket. The AWS SDK addresses a bucket by path on an endpoint
// given as an IP address, as here, and by host name elsewhere.
func TestS3Storage(t *testing.T) {
	backend := s3mem.New()
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	defer srv.Close()
	const bucket = "pegs-bucket"
	if err := backend.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"AWS_ENDPOINT_URL_S3": srv.URL, "AWS_ACCESS_KEY_ID": "pegs", "AWS_SECRET_ACCESS_KEY": "pegs",
		"AWS_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true", "AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull} {
		t.Setenv(k, v)
	}
	args := strings.Fields("--board triangle:4 --parts 4")
	code, stdout, stderr := exitOf(context.Background(), append([]string{"explore", "--format", "json", "--keep", "--storage", "s3://" + bucket + "/runs"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if g, w := untimed(t, stdout), untimed(t, inProcess(t, args)); g != w {
		t.Errorf("pegs-beam explore on s3:\n%s\nwant (pegs explore):\n%s", g, w)
	}
	list, err := backend.ListBucket(bucket, &gofakes3.Prefix{}, gofakes3.ListBucketPage{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Contents) == 0 {
		t.Errorf("no files in the bucket after a run kept there")
	}
	for _, o := range list.Contents[:min(3, len(list.Contents))] {
		t.Logf("s3://%s/%s", bucket, o.Key)
	}
}

package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"strings"

	"pegs/cmd/internal/cli"

	"pegs/engine"
	"pegs/report/serve"
	"pegs/search"
)

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("pegs", "serve", "[--addr HOST:PORT] [--levels FILE ...] [--geometry G] [--mem SIZE] [--workers N] [--log-level L]", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on; the default answers this machine only")
	var packs fileList
	fs.Var(&packs, "levels", "a level pack written by 'pegs generate' to offer after the classic levels; repeat for more")
	geometry := fs.String("geometry", "square", "geometry of the --levels packs' boards that are board files: square, diagonal or triangular")
	logLevel := fs.String("log-level", "info", "the least level logged: debug, info (every API request), warn (busy answers, failed builds) or error")
	sf := cli.SearchFlags{Many: true}
	sf.Register(fs, search.DefaultMemory)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	budget, err := sf.Load()
	if err != nil {
		return err
	}
	geom, err := engine.ParseGeometry(*geometry)
	if err != nil {
		return cli.UsageError{Err: err}
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return cli.Usagef("--log-level %q: want debug, info, warn or error", *logLevel)
	}
	cfg := serve.Config{Memory: budget, Workers: sf.Workers, Log: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))}
	for _, file := range packs {
		p, err := serve.LoadPack(file, geom)
		if err != nil {
			return err
		}
		cfg.Packs = append(cfg.Packs, p)
	}
	srv, err := serve.New(cfg)
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv.Start()
	return srv.Serve(ctx, ln)
}

// fileList is a flag that may be given more than once.
type fileList []string

func (f *fileList) String() string { return strings.Join(*f, ",") }

func (f *fileList) Set(s string) error {
	*f = append(*f, s)
	return nil
}

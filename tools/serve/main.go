// Command serve serves the built site on 127.0.0.1:8080 for trying the page
// over http, where the loader streams sim.wasm (make serve runs it after
// make site):
//
//	go run ./tools/serve [-addr 127.0.0.1:8080] [-dir site]
//
// It serves .wasm as application/wasm, which
// WebAssembly.instantiateStreaming requires, and tells the browser not to
// cache, so that a rebuilt engine shows on reload. It stops on interrupt.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/shedsim/shedsim/tools/internal/siteserve"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "the `host:port` to listen on")
	dir := fs.String("dir", "site", "the `directory` to serve")
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		return nil // -h: the usage is all that was asked for
	} else if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if _, err := os.Stat(filepath.Join(*dir, "sim.wasm")); err != nil {
		return fmt.Errorf("%s has no sim.wasm: run make site first", *dir)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: siteserve.Handler(*dir), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "serving %s on http://%s/ (interrupt to stop)\n", *dir, ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// errInterrupted is the error of a command stopped by SIGINT or SIGTERM.
var errInterrupted = errors.New("interrupted")

// interrupts turns the first SIGINT (Ctrl-C) or SIGTERM into the end of a
// context, so that commands stop promptly, print what they finished and
// exit with 128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM),
// as shells report a process killed by a signal. After the first signal
// the default handling is restored: a second Ctrl-C kills at once.
type interrupts struct {
	ctx    context.Context
	cancel context.CancelFunc
	ch     chan os.Signal
	mu     sync.Mutex
	sig    os.Signal
}

func catchInterrupts(parent context.Context) *interrupts {
	in := &interrupts{ch: make(chan os.Signal, 1)}
	in.ctx, in.cancel = context.WithCancel(parent)
	signal.Notify(in.ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-in.ch:
			signal.Stop(in.ch)
			in.mu.Lock()
			in.sig = s
			in.mu.Unlock()
			in.cancel()
		case <-in.ctx.Done():
		}
	}()
	return in
}

// stop releases the signals.
func (in *interrupts) stop() {
	signal.Stop(in.ch)
	in.cancel()
}

// caught returns the signal received, or nil.
func (in *interrupts) caught() os.Signal {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.sig
}

// exitCode is 128 + the number of the signal caught (130 if unknown).
func (in *interrupts) exitCode() int {
	if s, ok := in.caught().(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

package preview

import (
	"context"
	"errors"
	"io"
)

type Options struct {
	Root, Out, Addr string
	Log             io.Writer
}

func Serve(ctx context.Context, o Options) error { return errors.New("todo") }

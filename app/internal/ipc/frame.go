package ipc

import (
	"bufio"
	"errors"
	"io"
)

// errFrameTooLarge is returned by frameReader.next for a frame of more than
// MaxFrame bytes.
var errFrameTooLarge = errors.New("frame too large")

// readBuffer is the size of the buffered reader under a frameReader.
const readBuffer = 64 << 10

// frameReader reads newline-terminated frames of at most MaxFrame bytes,
// newline included. It never holds more than MaxFrame bytes of a frame
// (plus what its bufio.Reader has read ahead).
type frameReader struct {
	br  *bufio.Reader
	buf []byte
}

func newFrameReader(r io.Reader) *frameReader {
	return &frameReader{br: bufio.NewReaderSize(r, readBuffer)}
}

// start waits for the first byte of the next frame.
func (r *frameReader) start() error {
	_, err := r.br.Peek(1)
	return err
}

// next returns the next frame without its newline. The slice is valid until
// the next call. A frame cut short by the end of the stream is
// io.ErrUnexpectedEOF.
func (r *frameReader) next() ([]byte, error) {
	if cap(r.buf) > readBuffer {
		r.buf = nil // let a large frame's memory go
	}
	r.buf = r.buf[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(r.buf)+len(chunk) > MaxFrame {
			return nil, errFrameTooLarge
		}
		r.buf = append(r.buf, chunk...)
		switch {
		case err == nil:
			return r.buf[:len(r.buf)-1], nil
		case err == io.EOF && len(r.buf) > 0:
			return nil, io.ErrUnexpectedEOF
		case err != bufio.ErrBufferFull:
			return nil, err
		}
	}
}

package sim

import "iter"

// blockLine is a double-ended line of Ts, in blocks that never move: it
// grows without copying what it holds, so that it costs an item's size an
// item, and a block, where a ring that doubles its buffer holds three
// times its items for the moment it grows (the pickup path's waiting
// requests, up to MaxAttempts of them). Blocks it empties it keeps, to
// reuse, so it holds what it held at its longest.
type blockLine[T any] struct {
	blocks     []*[lineBlockLen]T // blocks[0] holds the positions from 0 to lineBlockLen-1
	head, tail uint               // the front's position, and one past the back's
	spare      []*[lineBlockLen]T // emptied blocks, to reuse
}

const (
	lineBlockBits = 10
	lineBlockLen  = 1 << lineBlockBits
)

// n is how many items the line holds.
func (l *blockLine[T]) n() int { return int(l.tail - l.head) }

// pushBack adds x at the back.
func (l *blockLine[T]) pushBack(x T) {
	if l.tail == uint(len(l.blocks))<<lineBlockBits {
		l.blocks = append(l.blocks, l.newBlock())
	}
	l.blocks[l.tail>>lineBlockBits][l.tail&(lineBlockLen-1)] = x
	l.tail++
}

// newBlock is an emptied block, or a new one.
func (l *blockLine[T]) newBlock() *[lineBlockLen]T {
	if n := len(l.spare); n > 0 {
		b := l.spare[n-1]
		l.spare = l.spare[:n-1]
		return b
	}
	return new([lineBlockLen]T)
}

// front is the item at the front; the line must hold one.
func (l *blockLine[T]) front() T { return l.blocks[l.head>>lineBlockBits][l.head&(lineBlockLen-1)] }

// popFront removes the item at the front and returns it.
func (l *blockLine[T]) popFront() T {
	x := l.front()
	l.head++
	if l.head == lineBlockLen { // the first block is spent
		l.spare = append(l.spare, l.blocks[0])
		l.blocks = l.blocks[1:]
		l.head, l.tail = 0, l.tail-lineBlockLen
	}
	return x
}

// popBack removes the item at the back and returns it.
func (l *blockLine[T]) popBack() T {
	l.tail--
	x := l.blocks[l.tail>>lineBlockBits][l.tail&(lineBlockLen-1)]
	if last := len(l.blocks) - 1; last > 0 && l.tail == uint(last)<<lineBlockBits { // the last block is empty
		l.spare = append(l.spare, l.blocks[last])
		l.blocks = l.blocks[:last]
	}
	return x
}

// all yields the line's items from the front.
func (l *blockLine[T]) all() iter.Seq[T] {
	return func(yield func(T) bool) {
		for p := l.head; p < l.tail; p++ {
			if !yield(l.blocks[p>>lineBlockBits][p&(lineBlockLen-1)]) {
				return
			}
		}
	}
}

// reset empties the line, keeping its blocks to reuse.
func (l *blockLine[T]) reset() {
	l.spare = append(l.spare, l.blocks...)
	clear(l.blocks)
	l.blocks, l.head, l.tail = l.blocks[:0], 0, 0
}

package approval_test

import (
	"context"
	"testing"

	"github.com/airlockhq/airlock/app/internal/approval"
)

// approveAll answers yes at once and, unlike Script, keeps no record.
type approveAll struct{}

func (approveAll) Prompt(_ context.Context, _ approval.Request, shown approval.ShownFunc) (approval.Answer, error) {
	shown()
	return approval.Answer{Outcome: approval.Approved}, nil
}

// BenchmarkAsk is the broker's own cost for one request answered at once:
// registration, the prompter goroutine, the timer and two events delivered
// to a subscriber that never reads.
func BenchmarkAsk(b *testing.B) {
	br := approval.NewBroker(approveAll{}, approval.Options{})
	_, stop := br.Subscribe(0)
	defer stop()
	r := request()
	for b.Loop() {
		if _, err := br.Ask(context.Background(), r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAskParallel is the same with requests from every core at once.
func BenchmarkAskParallel(b *testing.B) {
	br := approval.NewBroker(approveAll{}, approval.Options{})
	r := request()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := br.Ask(context.Background(), r); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

package approval_test

import (
	"context"
	"fmt"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/level"
)

func ExampleBroker() {
	// The person approves the plan but not its destructive item.
	person := approval.Scripted(approval.Answer{Outcome: approval.Approved})
	b := approval.NewBroker(person, approval.Options{})
	events, stop := b.Subscribe(8)
	defer stop()

	a, err := b.Ask(context.Background(), approval.Request{
		ID:     "call-1",
		Client: "cli",
		Tool:   "run",
		Items: []approval.Item{
			{Index: 1, Text: `CREATE_FOLDER "~/Documents/Project-X"`, Risk: level.Caution},
			{Index: 2, Text: `EMPTY_TRASH`, Risk: level.Destructive},
		},
	})
	fmt.Println(a.Outcome, a.Items, err)
	fmt.Println((<-events).Type, (<-events).Type)

	_, err = approval.NewBroker(nil, approval.Options{}).Ask(context.Background(), approval.Request{
		Items: []approval.Item{{Index: 1, Text: `DELETE_FILE "~/Documents/a.txt"`, Risk: level.Dangerous}},
	})
	fmt.Println(err)
	// Output:
	// approved [true false] <nil>
	// awaiting_approval approved
	// approval required: a dangerous action needs the person's approval and no approver is available
}

package redact_test

import (
	"fmt"

	"github.com/airlockhq/airlock/app/internal/redact"
)

func ExampleString() {
	fmt.Println(redact.String(`curl -H "Authorization: Bearer 9f8e7d6c5b4a39281706" https://api.example.com`))
	fmt.Println(redact.String("DATABASE_URL=postgres://app:Tr1cky-pw@db:5432/prod"))
	fmt.Println(redact.String(`{"user": "ada", "password": "hunter2"}`))
	fmt.Println(redact.String("MOVE_FILE \"~/Desktop/a.pdf\" \"~/Documents/a.pdf\""))
	// Output:
	// curl -H "Authorization: Bearer [redacted:authorization]" https://api.example.com
	// DATABASE_URL=postgres://app:[redacted:url-password]@db:5432/prod
	// {"user": "ada", "password": "[redacted:secret]"}
	// MOVE_FILE "~/Desktop/a.pdf" "~/Documents/a.pdf"
}

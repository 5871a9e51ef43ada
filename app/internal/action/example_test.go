package action_test

import (
	"fmt"

	"github.com/airlockhq/airlock/app/internal/action"
)

func ExampleParse() {
	plan, err := action.Parse(`# Tidy the desktop
MOVE_FILE "~/Desktop/report.pdf" "~/Documents/report.pdf"
WRITE_DOC "~/Documents/notes.md" <<END
# Notes
Moved the report.
END
notify "Airlock" "Done"
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range plan.Actions {
		fmt.Printf("%d %-9s %-9s %s\n", a.Line, a.Cmd.Name, a.Cmd.Class, a.Preview())
	}

	_, err = action.Parse("MOVE_FILE \"~/a.txt\"\nMOVEFILE \"~/a\" \"~/b\"\nSET_VOLUME 150\n")
	fmt.Println(err)
	// Output:
	// 2 MOVE_FILE caution   Move ~/Desktop/report.pdf → ~/Documents/report.pdf
	// 3 WRITE_DOC dangerous Write document ~/Documents/notes.md (2 lines)
	// 7 NOTIFY    safe      Notify "Airlock"
	// line 1: MOVE_FILE takes 2 arguments (from, to), got 1
	// line 2: unknown command "MOVEFILE" (did you mean MOVE_FILE?)
	// line 3: SET_VOLUME: level must be between 0 and 100, got "150"
}

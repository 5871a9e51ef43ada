package shell

import "testing"

// TestMakeRecipes: what of a makefile is shell, and how make's references
// read in it.
func TestMakeRecipes(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"recipe lines and their prefixes", "all: build\n\t@echo one\n\t-echo two\n\t+echo three\nbuild:\n\techo four\n",
			"echo one\necho two\necho three\necho four\n"},
		{"a recipe after ; on the rule line", "all: ; echo one\n", "echo one\n"},
		{"an assignment with := is not a rule", "X := a ; b\nall:\n\techo $(X)\n", "echo a ; b\n"},
		{"line continuations", "all:\n\techo one \\\n\t  two\n", "echo one  \t  two\n"},
		{"$$ is a $", "all:\n\techo $$HOME\n", "echo $HOME\n"},
		{"make's built-in RM", "all:\n\t$(RM) -r out\n", "rm -f -r out\n"},
		{"variables the makefile sets, through each other", "A = rm\nB ?= $(A) -rf\nall:\n\t$(B) ~\n", "rm -rf ~\n"},
		{"$(shell …) is a command substitution", "all:\n\techo $(shell date)\n", "echo $(date)\n"},
		{"unknown variables and functions are computed", "all:\n\t$(TOOL) $(wildcard *.c) ${OUT} $@\n",
			"${MAKE_VAR_TOOL} ${MAKE_FUNCTION} ${MAKE_VAR_OUT} ${MAKE_AUTO}\n"},
		{"a variable that refers to itself stops", "A = $(A)x\nall:\n\techo $(A)\n", "echo ${MAKE_VAR_A}xxxxxxxx\n"},
		{"an unclosed reference is kept as it is", "all:\n\techo $(oops\n", "echo $(oops\n"},
		{"no recipes", "X = 1\n# all:\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := makeRecipes(tc.src); got != tc.want {
				t.Errorf("makeRecipes(%q)\n got %q\nwant %q", tc.src, got, tc.want)
			}
		})
	}
}

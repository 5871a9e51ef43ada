package effect

import "slices"

// The combination table: effects that, found together in one action, make
// another (DESIGN.md, "Risk levels": a secret read and any way out; write
// then run the same path; download then run). Each half alone weighs what
// the calibration table says; together they are the effect the row makes,
// weighed by the same table. The analyzers that see a combination inside
// one language (the shell's write-exec and download-exec) find it
// themselves; the assessment applies the table over the whole action,
// whatever languages it spans (risk.combine).
var combos = []Combo{
	{
		Has: []Kind{ReadSecret, ReadNamedSecret, HoldSecret}, With: []Kind{Fetch, Egress, Send, Upload, Connect},
		Makes: Of(SecretOut),
		Why:   "a secret read (or written out, or read from a variable named like one) and any way out: the secret can leave (DESIGN.md)",
	},
	{
		Has: []Kind{Fetch}, With: []Kind{Run, Shell, RunUnseen, RunComputed}, Same: true,
		Makes: Of(RunComputed),
		Why:   "download then run: what runs is what the network sent",
	},
	{
		Has: []Kind{Fetch}, With: []Kind{Launch}, WithMods: Runnable, Same: true,
		Makes: Of(RunComputed),
		Why:   "download then open a runnable file: the OS runs what the network sent",
	},
	{
		Has: []Kind{Create, Overwrite, Change}, With: []Kind{Run, Shell, RunUnseen}, Same: true,
		Makes: Of(RunUnseen),
		Why:   "write then run the same path: what runs is what was written, read by no analyzer unless its text is known",
	},
	// Write then open the same runnable file needs no row: opening a
	// runnable file is Launch (runnable), which weighs more already.
}

// Combo is a row of the combination table: an effect of a kind in Has and
// another of a kind in With (having the mods WithMods), in one action —
// on the same target when Same — make the effect Makes.
type Combo struct {
	Has      []Kind
	With     []Kind
	WithMods Mod  // mods the With effect must have (Launch of a runnable file)
	Same     bool // both act on the same target, and both targets are known
	Makes    Effect
	Why      string
}

// Combos returns the combination table's rows, in order.
func Combos() []Combo { return slices.Clone(combos) }

// Made is a combination found: the row, and the indexes of the two effects
// (in the slice given to Combine) that made it.
type Made struct {
	Combo     Combo
	Has, With int
	Effect    Effect // the row's Makes, on the target both share (Same rows)
}

// Combine applies the combination table to es, the effects of one action:
// for each row, the first pair that matches, in order of the rows. An
// effect with no kind matches no row.
func Combine(es []Effect) []Made {
	var out []Made
	for _, c := range combos {
		if m, ok := c.match(es); ok {
			out = append(out, m)
		}
	}
	return out
}

func (c Combo) match(es []Effect) (Made, bool) {
	for i, a := range es {
		if a.Kind == 0 || !slices.Contains(c.Has, a.Kind) || c.Same && a.Target == "" {
			continue
		}
		for j, b := range es {
			if j == i || b.Kind == 0 || !slices.Contains(c.With, b.Kind) || b.Mods&c.WithMods != c.WithMods {
				continue
			}
			if c.Same && b.Target != a.Target {
				continue
			}
			e := c.Makes
			if c.Same {
				e = e.On(a.Target)
			}
			return Made{Combo: c, Has: i, With: j, Effect: e}, true
		}
	}
	return Made{}, false
}

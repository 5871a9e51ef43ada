package dashboard

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed style.css
var styleCSS []byte

// pages are the parsed templates, one per page, each with the layout.
type pages struct {
	history, settings *template.Template
}

func parsePages() (*pages, error) {
	parse := func(name string) (*template.Template, error) {
		return template.New(name).Option("missingkey=error").ParseFS(templateFiles, "templates/layout.html", "templates/"+name)
	}
	var p pages
	var err error
	if p.history, err = parse("history.html"); err != nil {
		return nil, err
	}
	if p.settings, err = parse("settings.html"); err != nil {
		return nil, err
	}
	return &p, nil
}

// page is what the layout shows around every page.
type page struct {
	Title     string
	Page      string // "history", "settings"
	Status    string
	ReadOnly  bool
	Generated string
}

func (s *Server) page(r *http.Request, name, title string) page {
	st := s.cfg.Status()
	status := fmt.Sprintf("Level %s · kill switch off", policy.Autonomy(st.Autonomy))
	if st.Killed {
		status = fmt.Sprintf("Level %s · KILL SWITCH ON: nothing runs until you resume", policy.Autonomy(st.Autonomy))
	}
	return page{Title: title, Page: name, Status: status, ReadOnly: accessOf(r) != Full,
		Generated: s.cfg.Now().In(s.cfg.Location).Format("2006-01-02 15:04:05 MST")}
}

// render executes t into memory first, so that a template error is a 500
// and never half a page.
func (s *Server) render(w http.ResponseWriter, t *template.Template, data any) {
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, "layout", data); err != nil {
		s.cfg.Logf("dashboard: rendering %s: %v", t.Name(), err)
		plain(w, http.StatusInternalServerError, "500 Internal Server Error: the page could not be rendered (the log says why)\n")
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(b.Len()))
	w.Write(b.Bytes())
}

type option struct {
	Value, Label string
	Selected     bool
}

type historyData struct {
	page
	F              Filter
	RiskOptions    []option
	OutcomeOptions []option
	MaxN, N        int
	Count          string
	Groups         []groupView
	Older          string
}

// historyPage is the history grouped by request, filtered by its query.
func (s *Server) historyPage(w http.ResponseWriter, r *http.Request) {
	f, err := ParseFilter(r.URL.Query(), s.cfg.Location)
	if err != nil {
		plain(w, http.StatusBadRequest, "400 Bad Request: "+err.Error()+"\n")
		return
	}
	groups, err := s.cfg.History.Groups(r.Context(), f.Query)
	if err != nil {
		var te *history.TamperError
		if errors.As(err, &te) {
			plain(w, http.StatusInternalServerError, "500: the history has been tampered with: "+te.Error()+
				"\n`airlock audit verify` names every row that fails.\n")
			return
		}
		s.cfg.Logf("dashboard: reading the history: %v", err)
		plain(w, http.StatusInternalServerError, "500 Internal Server Error: the history could not be read (the log says why)\n")
		return
	}
	d := historyData{page: s.page(r, "history", "history"), F: f, MaxN: history.MaxGroups, N: f.Query.Limit}
	d.RiskOptions = []option{{Value: "", Label: "any", Selected: f.Risk == ""}}
	for l := level.Safe; l <= level.Blocked; l++ {
		label := l.String() + " or above"
		if l == level.Blocked {
			label = "blocked"
		}
		d.RiskOptions = append(d.RiskOptions, option{Value: l.String(), Label: label, Selected: f.Risk == l.String()})
	}
	d.OutcomeOptions = []option{{Value: "", Label: "any way", Selected: f.Outcome == ""}}
	for _, o := range history.Outcomes() {
		d.OutcomeOptions = append(d.OutcomeOptions, option{Value: o, Label: o, Selected: f.Outcome == o})
	}
	seqs := make(map[int64]bool, len(groups))
	for _, g := range groups {
		seqs[g.Seq] = true
	}
	onPage := func(seq int64) bool { return seqs[seq] }
	for _, g := range groups {
		d.Groups = append(d.Groups, viewGroup(g, s.cfg.Location, onPage))
	}
	switch n := len(groups); {
	case n == 1:
		d.Count = "1 request, newest first."
	default:
		d.Count = fmt.Sprintf("%d requests, newest first.", n)
	}
	if len(groups) == f.Query.Limit {
		v := f.Values()
		v.Set("before", strconv.FormatInt(groups[len(groups)-1].Seq, 10))
		d.Older = "/?" + v.Encode()
	}
	s.render(w, s.pages.history, d)
}

func serveStyle(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(styleCSS)))
	w.Write(styleCSS)
}

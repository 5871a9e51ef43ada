package facts

// RiskyMenuLabels are the menu commands, lower case, whose choice matters:
// a click on a menu item chosen by a filter ("whose name contains …") is
// rated as the worst of these the filter can match.
var RiskyMenuLabels = []string{"empty trash", "empty bin", "secure empty trash", "erase", "move to trash", "move to bin",
	"delete", "delete immediately", "shut down", "restart", "log out", "force quit", "reset", "clear history", "remove all", "clear all"}

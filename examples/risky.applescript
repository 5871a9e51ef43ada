-- What Airlock stops: this empties the Trash for good. Only assess it:
--   bin/airlock assess --kind applescript examples/risky.applescript
tell application "Finder" to empty trash

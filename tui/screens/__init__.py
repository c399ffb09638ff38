"""The app's screens: start, setup, console, action and correction forms, help, load error."""

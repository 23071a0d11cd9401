"""The league's public pages: division tables, rounds, players, match reports, exports."""

"""The Europa engine system: the sequence of play (EUR-22), the command table, the referee
hooks and the turn."""

"""The month-end production phase (block game; EF-02, EF-04..EF-06, EF-14): steps, rebuilds,
U-boat and escort programmes, marker removal, the end of production."""

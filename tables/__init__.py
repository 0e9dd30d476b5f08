"""One live game per channel: phases, seats, deadlines, escrow, settlement and resume."""

"""The control room (admin role, checked per view), by part of the page: the room and its
clock, one team and its corrections, the tablets, objections and finalise, the audit log and
the locked logins. Every write is a service call; shared reads are in judging.selectors."""

# dutch-truncate.awk - the state of a generated TRF event before round K+1,
# as tests/data/pairing/README.md (shared data) describes the replay:
#   awk -v K=5 -v N=11 -f bench/dutch-truncate.awk FULL.trf > before6.trf
# keeps the first K round blocks of each 001 line (10 characters each from
# column 92), recomputes the points (columns 81-84: 1 for 1 + W F U, 0.5
# for = D H), keeps the round K+1 block of players announced absent
# (opponent 0000 with H, Z, F, - or blank; not U, the pairing-allocated
# bye) and adds `XXR N`. CR, LF and CRLF line ends are read; LF is written.
BEGIN { RS = "\r\n|\r|\n" }
/^001/ {
  line = $0
  pts = 0
  out = substr(line, 1, 91)
  while (length(out) < 91) out = out " "
  for (r = 1; r <= K; r++) {
    blk = substr(line, 92 + (r - 1) * 10, 10)
    res = substr(blk, 8, 1)
    if (res ~ /[1+WFU]/) pts += 1
    else if (res ~ /[=DH]/) pts += 0.5
    out = out blk
  }
  nb = substr(line, 92 + K * 10, 10)
  if (substr(nb, 1, 4) == "0000" && substr(nb, 8, 1) ~ /[HZF -]/ && length(nb) >= 8) {
    out = out nb
    # the points count the announced bye too, as its result is written
    if (substr(nb, 8, 1) == "H") pts += 0.5
    else if (substr(nb, 8, 1) == "F") pts += 1
  }
  sub(/ +$/, "", out)
  out = substr(out, 1, 80) sprintf("%4.1f", pts) substr(out, 85)
  print out
  next
}
/^XXR/ { next }
length($0) > 0 { print }
END { print "XXR " N }

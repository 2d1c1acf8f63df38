# gnuplot -c scripts/bench-plot.gp DAT SVG: make bench's attach and detach
# times against the number of functions (tests/progs/bench_attach.c writes
# DAT), log-log, as an SVG.
dat = ARG1
set terminal svg size 800,500 dynamic font "sans,12" background "white"
set output ARG2
set datafile missing "-"
set logscale xy
set grid
set key bottom right
# room above the highest and below the lowest point
set offsets graph 0.03, graph 0.03, graph 0.1, graph 0.05
set xlabel "functions attached (N)"
set ylabel "wall time (s), median"
set title "Attach and detach time against N (make bench, TCG guest, one vCPU)"
set format x "10^{%L}"
set format y "10^{%L}"
plot dat using 1:2 with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "tracing\\_multi attach", \
     dat using 1:3 with linespoints lw 2 pt 6 dt 2 lc rgb "#1f77b4" title "tracing\\_multi detach", \
     dat using 1:4 with linespoints lw 2 pt 5 lc rgb "#d62728" title "N fentry links attach", \
     dat using 1:5 with linespoints lw 2 pt 4 dt 2 lc rgb "#d62728" title "N fentry links detach", \
     dat using 1:6 with linespoints lw 2 pt 9 lc rgb "#2ca02c" title "kprobe\\_multi attach", \
     dat using 1:7 with linespoints lw 2 pt 8 dt 2 lc rgb "#2ca02c" title "kprobe\\_multi detach"

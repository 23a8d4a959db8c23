# Written by bench/report.py: softmax GB/s against N (M = 4096).
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1100,650 noenhanced
} else {
  set terminal png size 1100,650 noenhanced
}
set output "sweep.png"
set title "Softmax, M = 4096: GB/s vs N - NVIDIA H200, 2026-11-27" noenhanced
set xlabel "N (columns), M = 4096 rows" noenhanced
set ylabel "GB/s (8*M*N bytes / median time)" noenhanced
set key bottom right noenhanced
set grid
set datafile missing "-"
plot "sweep.dat" using 1:2 with linespoints pt 7 ps 0.6 lw 2 title "ktc fused", \
     "" using 1:3 with linespoints pt 5 ps 0.6 lw 2 title "Triton fused (tutorial)", \
     "" using 1:4 with linespoints pt 9 ps 0.6 lw 2 title "torch.softmax", \
     "" using 1:5 with lines dt 2 lw 1 lc "gray40" title "torch copy, same bytes"

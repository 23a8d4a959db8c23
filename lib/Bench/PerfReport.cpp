//===- PerfReport.cpp - perf_report: a sweep as CSV and a gnuplot PNG ------===//
//
// triton.testing.perf_report writes a CSV and a matplotlib plot; ktc writes
// the same CSV, a gnuplot script next to it, and runs gnuplot on it when it
// is installed. The script reads the CSV by its name, so `gnuplot NAME.gp`
// in the output folder redraws the plot later.
//
//===----------------------------------------------------------------------===//

#include "ktc/Bench.h"

#include "ktc/Error.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;

namespace ktc::bench {
namespace {

std::string formatValue(double v) {
  if (std::isnan(v))
    return "";
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

void writeFile(const fs::path &path, const std::string &text,
               std::source_location loc) {
  std::ofstream file(path);
  file << text;
  if (!file.flush())
    throw Error("perf_report: cannot write '" + path.string() + "'", loc);
}

/// The executable `name` (a path, or a name searched on PATH); "" if none.
std::string findProgram(const std::string &name) {
  if (name.find('/') != std::string::npos)
    return access(name.c_str(), X_OK) == 0 ? name : "";
  const char *path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
    if (access(candidate.c_str(), X_OK) == 0)
      return candidate.string();
  }
  return "";
}

/// `s` as one single-quoted word for /bin/sh.
std::string shellQuote(const std::string &s) {
  std::string quoted = "'";
  for (char c : s)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

/// A gnuplot string literal (single quotes; '' is a quote).
std::string gnuplotQuote(const std::string &s) {
  std::string quoted = "'";
  for (char c : s)
    quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return quoted + "'";
}

std::string gnuplotScript(const Benchmark &b, const std::string &csv,
                          const std::string &png) {
  std::ostringstream gp;
  gp << "# Written by ktc::bench::perf_report; run `gnuplot "
     << b.plot_name << ".gp` in this folder.\n"
     << "set datafile separator ','\n"
     << "set terminal pngcairo size 960,600 noenhanced\n"
     << "set output " << gnuplotQuote(png) << "\n"
     << "set title " << gnuplotQuote(b.plot_name) << "\n"
     << "set xlabel " << gnuplotQuote(b.x_name) << "\n"
     << "set ylabel " << gnuplotQuote(b.y_label) << "\n"
     << "set grid\n"
     << "set key outside right\n";
  if (b.x_log)
    gp << "set logscale x 2\n";
  if (b.y_log)
    gp << "set logscale y\n";
  gp << "plot for [i=2:" << b.providers.size() + 1 << "] " << gnuplotQuote(csv)
     << " using 1:i with linespoints title columnheader(i)\n";
  return gp.str();
}

} // namespace

Report perf_report(
    const Benchmark &b,
    const std::function<double(const std::string &provider, int64_t x)>
        &measure,
    const ReportOptions &options, std::source_location loc) {
  if (b.providers.empty() || b.x_vals.empty())
    throw Error("perf_report: '" + b.plot_name +
                "' needs at least one x value and one provider",
                loc);
  Report report;
  std::string header = b.x_name;
  for (const std::string &provider : b.providers)
    header += "," + provider;
  report.csv = header + "\n";
  if (options.print)
    std::printf("%s:\n%s\n", b.plot_name.c_str(), header.c_str());

  for (int64_t x : b.x_vals) {
    std::vector<double> row;
    std::string line = std::to_string(x);
    for (const std::string &provider : b.providers) {
      row.push_back(measure(provider, x));
      line += ',';
      line += formatValue(row.back());
    }
    report.values.push_back(std::move(row));
    report.csv += line + "\n";
    if (options.print) {
      std::printf("%s\n", line.c_str());
      std::fflush(stdout);
    }
  }

  fs::path dir(options.dir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw Error("perf_report: cannot create '" + dir.string() +
                "': " + ec.message(),
                loc);
  std::string csv = b.plot_name + ".csv", png = b.plot_name + ".png";
  report.csv_path = (dir / csv).string();
  report.script_path = (dir / (b.plot_name + ".gp")).string();
  writeFile(report.csv_path, report.csv, loc);
  writeFile(report.script_path, gnuplotScript(b, csv, png), loc);

  std::string gnuplot = findProgram(options.gnuplot);
  if (gnuplot.empty()) {
    std::fprintf(stderr,
                 "note: %s not found; no plot (the data is in %s, the "
                 "script in %s)\n",
                 options.gnuplot.c_str(), report.csv_path.c_str(),
                 report.script_path.c_str());
    return report;
  }
  std::string command = "cd " + shellQuote(dir.string()) + " && " +
                        shellQuote(gnuplot) + " " +
                        shellQuote(b.plot_name + ".gp");
  int status = std::system(command.c_str());
  if (status != 0) {
    std::fprintf(stderr, "note: gnuplot failed on %s (status %d); no plot\n",
                 report.script_path.c_str(), status);
    return report;
  }
  report.png_path = (dir / png).string();
  return report;
}

} // namespace ktc::bench

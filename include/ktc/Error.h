//===- ktc/Error.h - the one error type of ktc's public API -----*- C++ -*-===//
//
// Every misuse of the builder, a failed compile or a bad launch reaches the
// user as a ktc::Error whose message starts with the user's own file:line.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_ERROR_H
#define KTC_ERROR_H

#include <source_location>
#include <stdexcept>
#include <string>

namespace ktc {

class Error : public std::runtime_error {
public:
  /// `what()` reads "file:line:column: error: message".
  Error(const std::string &message, std::source_location where);
  /// An error at a location given by parts (e.g. from an MLIR diagnostic).
  Error(const std::string &message, const std::string &file, unsigned line,
        unsigned column);
  /// An error with no source location (e.g. a device failure).
  explicit Error(const std::string &message);

  /// The message without the location prefix.
  const std::string &message() const { return message_; }
  /// Where in the user's code the error comes from ("" when unknown).
  const std::string &file() const { return file_; }
  unsigned line() const { return line_; }
  unsigned column() const { return column_; }

private:
  std::string message_;
  std::string file_;
  unsigned line_ = 0, column_ = 0;
};

} // namespace ktc

#endif // KTC_ERROR_H

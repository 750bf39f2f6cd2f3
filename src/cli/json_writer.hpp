// Just enough JSON for the statistics files (--json): nested objects and arrays of strings,
// numbers and booleans, with commas placed by the writer. Non-finite numbers become null.
#pragma once

#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

namespace deltasplit::cli {

class json_writer {
 public:
  explicit json_writer(std::ostream& os) : os_(os) {}

  json_writer& begin_object() { return open('{'); }
  json_writer& end_object() { return close('}'); }
  json_writer& begin_array() { return open('['); }
  json_writer& end_array() { return close(']'); }

  json_writer& key(const std::string& k) {
    separate();
    quote(k);
    os_ << ": ";
    after_key_ = true;
    return *this;
  }
  json_writer& value(const std::string& s) {
    separate();
    quote(s);
    return *this;
  }
  json_writer& value(const char* s) { return value(std::string(s)); }
  json_writer& value(bool b) {
    separate();
    os_ << (b ? "true" : "false");
    return *this;
  }
  template <class Number, class = std::enable_if_t<std::is_arithmetic_v<Number>>>
  json_writer& value(Number x) {
    separate();
    if constexpr (std::is_floating_point_v<Number>) {
      if (std::isfinite(x))
        os_ << x;
      else
        os_ << "null";
    } else {
      os_ << +x;
    }
    return *this;
  }
  template <class T>
  json_writer& field(const std::string& k, const T& v) {
    key(k);
    return value(v);
  }

 private:
  json_writer& open(char c) {
    separate();
    os_ << c;
    first_.push_back(true);
    return *this;
  }
  json_writer& close(char c) {
    first_.pop_back();
    os_ << '\n' << std::string(2 * first_.size(), ' ') << c;
    if (first_.empty()) os_ << '\n';
    return *this;
  }
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (first_.empty()) return;
    if (!first_.back()) os_ << ',';
    first_.back() = false;
    os_ << '\n' << std::string(2 * first_.size(), ' ');
  }
  void quote(const std::string& s) {
    os_ << '"';
    for (char c : s) {
      if (c == '"' || c == '\\')
        os_ << '\\' << c;
      else if (static_cast<unsigned char>(c) < 0x20)
        os_ << "\\u00" << "0123456789abcdef"[(c >> 4) & 0xf] << "0123456789abcdef"[c & 0xf];
      else
        os_ << c;
    }
    os_ << '"';
  }

  std::ostream& os_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

}  // namespace deltasplit::cli

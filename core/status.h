// Status and Result<T>: how every function that touches user input, files or the device reports failure.
// A Status carries a category (which decides the case outcome and the exit code) and a one-line message;
// callers add context ("case 'x'", "field /desc/Sizes") on the way up instead of logging and returning.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace dmltool {

enum class ErrorCode {
    kOk,
    kInvalidInput,  // the case or command line is wrong: INVALID, exit code 2
    kUnsupported,   // legal, but beyond what this run supports (feature level cap, device caps): UNSUPPORTED
    kIo,            // a file could not be read or written: INVALID when it is a case's file, exit code 2
    kDevice,        // the GPU or its runtime failed: exit code 3
    kInternal,      // a bug in dmltool: exit code 3
};

const char* error_code_name(ErrorCode code);

class [[nodiscard]] Status {
public:
    Status() = default;
    Status(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

    static Status ok() { return {}; }
    bool is_ok() const { return code_ == ErrorCode::kOk; }
    ErrorCode code() const { return code_; }
    const std::string& message() const { return message_; }

    // Prefixes the message: "outer: inner". Returns a copy so it chains in return statements.
    Status with_context(const std::string& context) const;

private:
    ErrorCode code_ = ErrorCode::kOk;
    std::string message_;
};

inline Status invalid_input(std::string message) { return {ErrorCode::kInvalidInput, std::move(message)}; }
inline Status unsupported(std::string message) { return {ErrorCode::kUnsupported, std::move(message)}; }
inline Status io_error(std::string message) { return {ErrorCode::kIo, std::move(message)}; }
inline Status device_error(std::string message) { return {ErrorCode::kDevice, std::move(message)}; }
inline Status internal_error(std::string message) { return {ErrorCode::kInternal, std::move(message)}; }

template <typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design, like absl::StatusOr
    Result(Status status) : status_(std::move(status)) { assert(!status_.is_ok()); }  // NOLINT

    bool is_ok() const { return value_.has_value(); }
    const Status& status() const { return status_; }
    T& value() & { assert(is_ok()); return *value_; }
    const T& value() const& { assert(is_ok()); return *value_; }
    T&& value() && { assert(is_ok()); return std::move(*value_); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

private:
    std::optional<T> value_;
    Status status_;
};

namespace detail {
inline const Status& status_of(const Status& s) { return s; }
template <typename T>
const Status& status_of(const Result<T>& r) { return r.status(); }
}  // namespace detail

}  // namespace dmltool

#define DMLTOOL_CONCAT_INNER(a, b) a##b
#define DMLTOOL_CONCAT(a, b) DMLTOOL_CONCAT_INNER(a, b)

#define DMLTOOL_RETURN_IF_ERROR(expr)                                          \
    do {                                                                       \
        auto&& dmltool_status_ = (expr);                                       \
        if (!dmltool_status_.is_ok()) return ::dmltool::detail::status_of(dmltool_status_); \
    } while (0)

#define DMLTOOL_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
    auto tmp = (expr);                                \
    if (!tmp.is_ok()) return tmp.status();            \
    lhs = std::move(tmp).value()

#define DMLTOOL_ASSIGN_OR_RETURN(lhs, expr) \
    DMLTOOL_ASSIGN_OR_RETURN_IMPL(DMLTOOL_CONCAT(dmltool_result_, __LINE__), lhs, expr)

#include "core/status.h"

namespace dmltool {

const char* error_code_name(ErrorCode code) {
    switch (code) {
        case ErrorCode::kOk: return "ok";
        case ErrorCode::kInvalidInput: return "invalid input";
        case ErrorCode::kUnsupported: return "unsupported";
        case ErrorCode::kIo: return "i/o error";
        case ErrorCode::kDevice: return "device error";
        case ErrorCode::kInternal: return "internal error";
    }
    return "unknown";
}

Status Status::with_context(const std::string& context) const {
    if (is_ok() || context.empty()) return *this;
    return Status(code_, context + ": " + message_);
}

}  // namespace dmltool

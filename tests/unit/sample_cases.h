// A small, valid case that several harness tests (loader, runner, GPU runner) build on.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace dmltool::testing {

// DEPTH_TO_SPACE1 {1,4,1,2} -> {1,1,2,4}, UINT32, BlockSize 2, DCR (FL 2_1): output row-major is
// input[0,2,1,3,4,6,5,7].
inline nlohmann::json d2s_case(const std::string& name) {
    nlohmann::json c = nlohmann::json::parse(R"({
      "operator": {
        "type": "DML_OPERATOR_DEPTH_TO_SPACE1",
        "desc": {
          "InputTensor":  {"DataType": "UINT32", "Sizes": [1, 4, 1, 2]},
          "OutputTensor": {"DataType": "UINT32", "Sizes": [1, 1, 2, 4]},
          "BlockSize": 2,
          "Order": "DEPTH_COLUMN_ROW"
        }
      },
      "inputs": {"InputTensor": {"values": [10, 11, 12, 13, 14, 15, 16, 17]}},
      "expected": {"OutputTensor": {"values": [10, 12, 11, 13, 14, 16, 15, 17]}}
    })");
    c["name"] = name;
    return c;
}

}  // namespace dmltool::testing

// Replays fuzzer inputs without libFuzzer, so every build (GCC Release included) runs the committed corpus and
// crash reproducers through the same entry point: `case_file_fuzz_replay FILE...`. Exit 0 when every input
// ran; a bug aborts (with sanitizers, reports) as it would under the fuzzer.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FILE...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; ++i) {
        std::ifstream in(argv[i], std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "%s: cannot open fuzzer input\n", argv[i]);
            return 2;
        }
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    }
    std::printf("replayed %d fuzzer inputs\n", argc - 1);
    return 0;
}

// dxbc_dump: prints the fxc-style disassembly of DXBC compute shader files (ours or fxc's) and checks
// their container checksum. Usage: dxbc_dump file.dxbc [more.dxbc ...]
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "shaders/container.h"
#include "shaders/disasm.h"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s file.dxbc [more.dxbc ...]\n", argv[0]);
        return 2;
    }
    int exit_code = 0;
    for (int i = 1; i < argc; ++i) {
        std::ifstream file(argv[i], std::ios::binary);
        if (!file) {
            std::fprintf(stderr, "%s: cannot open\n", argv[i]);
            exit_code = 2;
            continue;
        }
        const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        auto text = dmltool::shaders::disassemble_container(bytes);
        if (!text.is_ok()) {
            std::fprintf(stderr, "%s: %s\n", argv[i], text.status().message().c_str());
            exit_code = 1;
            continue;
        }
        std::printf("// %s (%zu bytes, checksum ok)\n%s", argv[i], bytes.size(), text->c_str());
    }
    return exit_code;
}

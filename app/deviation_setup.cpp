#include "app/deviation_setup.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "app/device.h"

namespace dmltool::app {

Result<std::vector<DeviationRegistry>> load_deviation_registries(const std::string& choice, const OpRegistry& ops) {
    std::vector<DeviationRegistry> registries;
    if (choice == "none") return registries;
    if (choice == "auto") {
        for (const auto& [source, text] : shipped_deviation_registries()) {
            auto parsed = parse_deviation_registry(text, source, ops);
            // A shipped registry that does not parse is dmltool's bug (tests parse every one), not the user's.
            if (!parsed.is_ok()) return internal_error("shipped deviation registry: " + parsed.status().message());
            registries.push_back(std::move(parsed).value());
        }
        return registries;
    }
    std::ifstream in(choice, std::ios::binary);
    if (!in) return invalid_input("--deviations: expected auto, none or a readable registry file, found '" + choice + "'");
    std::ostringstream text;
    text << in.rdbuf();
    DMLTOOL_ASSIGN_OR_RETURN(DeviationRegistry registry, parse_deviation_registry(text.str(), choice, ops));
    registries.push_back(std::move(registry));
    return registries;
}

void attach_deviation_registries(Runner& runner, const std::vector<Backend*>& backends,
                                 const std::vector<DeviationRegistry>& registries, const std::string& choice,
                                 std::FILE* out) {
    for (size_t i = 0; i < backends.size(); ++i) {
        // Only DirectML's departures are registered; dmltool's own kernels are held to the contract.
        if (backends[i]->label() != "directml") continue;
        const std::optional<std::string> version = backends[i]->implementation_version();
        const std::string dll = "DirectML " + version.value_or("(version unreadable)");
        if (registries.empty()) {
            std::fprintf(out, "dmltool: deviations: none registered for %s (--deviations %s): every departure from the "
                         "contract is FAILED\n", dll.c_str(), choice.c_str());
            continue;
        }
        RegistryChoice picked;
        if (choice == "auto") {
            picked = choose_deviation_registry(registries, version);
        } else {
            picked.registry = &registries.front();
            if (!version || compare_versions(*version, picked.registry->version) != 0)
                picked.note = "registry of DirectML " + picked.registry->version + " used for " + dll + " (--deviations)";
        }
        if (picked.registry) runner.set_deviations(i, picked.registry);
        const std::string what = picked.registry ? "dml-" + picked.registry->version + " (" + picked.registry->source +
                                                       ", " + std::to_string(picked.registry->entries.size()) + " entries)"
                                                 : std::string("none");
        std::fprintf(out, "dmltool: deviations: %s for %s%s\n", what.c_str(), dll.c_str(),
                     picked.note.empty() ? "" : ("; note: " + picked.note).c_str());
    }
}

std::vector<std::string> describe_deviation_registries(const std::vector<DeviationRegistry>& registries,
                                                       const std::optional<std::string>& loaded_version) {
    std::vector<std::string> lines;
    std::string versions;
    for (const DeviationRegistry& r : registries) versions += (versions.empty() ? "" : ", ") + r.version;
    lines.push_back("DirectML deviation registries shipped: " + (versions.empty() ? std::string("none") : versions));
    if (!loaded_version) return lines;
    const RegistryChoice picked = choose_deviation_registry(registries, loaded_version);
    if (!picked.note.empty()) lines.push_back("  note: " + picked.note);
    if (!picked.registry) return lines;
    lines.push_back("  for the loaded DirectML " + *loaded_version + ": dml-" + picked.registry->version + " (" +
                    std::to_string(picked.registry->entries.size()) + " registered deviations)");
    for (const DeviationEntry& e : picked.registry->entries)
        lines.push_back("    " + e.id + ": " + e.description);
    return lines;
}

}  // namespace dmltool::app

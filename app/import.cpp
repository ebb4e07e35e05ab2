// `dmltool import MODEL.onnx --out DIR` (docs/importing-models.md): the front end of model_import/.
#include <cstdio>

#include "app/commands.h"
#ifdef DMLTOOL_HAVE_MODEL_IMPORT
#include "model_import/importer.h"
#endif

namespace dmltool::app {

int import_command(const ImportCommandOptions& options, const OpRegistry& registry) {
#ifdef DMLTOOL_HAVE_MODEL_IMPORT
    model_import::ImportOptions import;
    import.model = options.model;
    import.out_dir = options.out_dir;
    import.name = options.name;
    import.dedupe = !options.no_dedupe;
    import.tensors_from = options.tensors_from;
    if (options.batch) import.batch = *options.batch;
    auto summary = model_import::import_model(import, registry);
    if (!summary.is_ok()) return report_error(summary.status(), summary.status().code() == ErrorCode::kInternal ? 3 : 2);
    std::string per_operator;
    for (const auto& [op, count] : summary->cases_per_operator)
        per_operator += (per_operator.empty() ? "" : ", ") + op + "\u00d7" + std::to_string(count);
    std::printf("import: wrote %zu case%s (%s) to %s%s%s\n", summary->cases, summary->cases == 1 ? "" : "s",
                per_operator.empty() ? "none" : per_operator.c_str(), summary->case_file.string().c_str(),
                summary->data_file.empty() ? "" : " and ", summary->data_file.string().c_str());
    if (options.verbose)
        for (const auto& [op, why] : summary->why)
            std::printf("import: unsupported %s (%zu): %s\n", op.c_str(), summary->unsupported.at(op), why.c_str());
    std::printf("%s\n", summary->line().c_str());
    return options.strict && summary->unsupported_count() > 0 ? 1 : 0;
#else
    (void)options;
    (void)registry;
    return report_error(unsupported("this dmltool was built without ONNX support (libonnx-dev): import is not "
                                    "available"),
                        2);
#endif
}

}  // namespace dmltool::app

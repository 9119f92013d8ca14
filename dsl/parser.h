// Parser: tokens of one source buffer to a File tree, recovering after errors.
#pragma once

#include <memory>

#include "dsl/ast.h"
#include "dsl/diagnostics.h"

namespace rulebook::dsl {

/// Parses buffer `file` of `sources`. Always returns a tree: after a syntax error the
/// parser reports it, skips to the next statement or declaration and goes on, so one run
/// reports many errors; declarations it could not read are left out of the tree.
std::unique_ptr<File> parse(const SourceSet& sources, uint32_t file, Diagnostics& diags);

}  // namespace rulebook::dsl

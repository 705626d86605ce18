# The source revision the binaries are built from, read at build time (not at configure time), so
# that `lockstep --version` and every recording's header name the revision really compiled:
#   cmake -DSOURCE_DIR=<checkout> -DOUT=<file.cpp> -P cmake/revision.cmake
# Writes OUT only when the revision changed, so an unchanged tree rebuilds nothing.
execute_process(COMMAND git -C "${SOURCE_DIR}" describe --always --dirty --abbrev=12
                OUTPUT_VARIABLE rev OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT rev)
  set(rev "unknown")  # not a git checkout (a source package): docs/format.md
endif()
set(content "// Written at build time by cmake/revision.cmake: the revision these binaries are built from.
namespace lockstep::lsr::detail {
extern const char* const kSourceRevision;
const char* const kSourceRevision = \"${rev}\";
}  // namespace lockstep::lsr::detail
")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUT}" "${content}")
endif()

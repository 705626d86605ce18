# cmake -DINPUT=viewer.html -DOUTPUT=viewer_html.cpp -P embed.cmake: the viewer's page as a C++
# string (kViewerHtml), made at build time from the page's source (tools/lockstep/CMakeLists.txt).
file(READ "${INPUT}" page)
string(FIND "${page}" ")lockstep_viewer\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} holds the raw string's delimiter )lockstep_viewer\"")
endif()
file(WRITE "${OUTPUT}.tmp" "// Made by tools/lockstep/view/embed.cmake from ${INPUT}: do not edit.\n"
     "namespace lockstep::cli {\nextern const char kViewerHtml[];\n"
     "const char kViewerHtml[] = R\"lockstep_viewer(${page})lockstep_viewer\";\n}  // namespace lockstep::cli\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")

// The reference for `bench decode` (scripts/decode-vs-simdjson): simdjson parses a whole file
// into its DOM, then every value is visited (strings' bytes summed, numbers and literals
// counted), as a decoder that reads everything must. Run: visit FILE REPETITIONS; prints the
// median rate over the file's bytes, and what it visited, so the compiler keeps the walk; then
// the rate of reading and parsing alone (to the DOM, no visit), which scripts/simdjson/tape.c's
// rate for bench's own tape parse is set against.
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

struct Visited {
    size_t values = 0;
    size_t stringBytes = 0;
};

void visit(simdjson::dom::element element, Visited &visited) {
    visited.values += 1;
    switch (element.type()) {
    case simdjson::dom::element_type::ARRAY: {
        // Held in a local: value_unsafe() lends from the result, which a range-for would outlive.
        simdjson::dom::array array = element.get_array().value_unsafe();
        for (simdjson::dom::element child : array) visit(child, visited);
        break;
    }
    case simdjson::dom::element_type::OBJECT: {
        simdjson::dom::object object = element.get_object().value_unsafe();
        for (simdjson::dom::key_value_pair field : object) {
            visited.stringBytes += field.key.size();
            visit(field.value, visited);
        }
        break;
    }
    case simdjson::dom::element_type::STRING:
        visited.stringBytes += element.get_string().value_unsafe().size();
        break;
    default:
        break;
    }
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: visit FILE REPETITIONS\n");
        return 64;
    }
    const int repetitions = std::max(1, std::atoi(argv[2]));
    simdjson::dom::parser parser;
    std::vector<double> rates;
    std::vector<double> parseRates;
    Visited visited;
    size_t bytes = 0;
    for (int repetition = 0; repetition < repetitions; repetition++) {
        const auto start = std::chrono::steady_clock::now();
        // Reading the file is part of it, as it is of bench decode's time.
        simdjson::padded_string text;
        if (simdjson::padded_string::load(argv[1]).get(text)) {
            std::fprintf(stderr, "visit: cannot read %s\n", argv[1]);
            return 1;
        }
        simdjson::dom::element root;
        if (auto error = parser.parse(text).get(root)) {
            std::fprintf(stderr, "visit: %s: %s\n", argv[1], simdjson::error_message(error));
            return 1;
        }
        const double parsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        visited = Visited();
        visit(root, visited);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        bytes = text.size();
        rates.push_back(double(bytes) / seconds / 1e6);
        parseRates.push_back(double(bytes) / parsed / 1e6);
    }
    std::sort(rates.begin(), rates.end());
    std::sort(parseRates.begin(), parseRates.end());
    std::printf("%.0f MB/s (median of %d; range %.0f-%.0f), %zu bytes, %zu values, %zu string bytes; parse alone %.0f MB/s\n",
                rates[rates.size() / 2], repetitions, rates.front(), rates.back(), bytes, visited.values, visited.stringBytes,
                parseRates[parseRates.size() / 2]);
    return 0;
}

// The reference for `bench decode` (scripts/decode-vs-simdjson): simdjson parses a whole file
// into its DOM, then every value is visited (strings' bytes summed, numbers and literals
// counted), as a decoder that reads everything must. Run: visit FILE REPETITIONS; prints the
// median rate over the file's bytes, and what it visited, so the compiler keeps the walk; then
// the rate of reading and parsing alone (to the DOM, no visit), which scripts/simdjson/tape.c's
// rate for bench's own tape parse is set against.
// Timed, per repetition: pread of the whole file into one padded buffer, then parse (and visit).
// Fair: bench decode's time also reads the file (open and read(2) in its reader), but here the
// buffer, the open descriptor and the parser with its document are set up once and faulted by an
// untimed pass first, so the reference gets every reuse bench has, and more.
//
// DOM rather than On-Demand: On-Demand gains by skipping what is not asked for, and a visit that
// asks for every value skips nothing; DOM's stage 2 has already unescaped each string and parsed
// each number onto its tape, so the walk is cheap, and its parse alone is a complete, validated
// parse, which is what tape.c's figure is set against (On-Demand's iterate is only stage 1).
#include <simdjson.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
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

// Reads the whole file (`size` bytes) from offset 0 into `buffer`, already allocated: no allocation.
bool readWhole(int descriptor, char *buffer, size_t size) {
    size_t done = 0;
    while (done < size) {
        const ssize_t received = pread(descriptor, buffer + done, size - done, off_t(done));
        if (received < 0 && errno == EINTR) continue;
        if (received <= 0) return false;
        done += size_t(received);
    }
    return true;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: visit FILE REPETITIONS\n");
        return 64;
    }
    const int repetitions = std::max(1, std::atoi(argv[2]));
    const int descriptor = open(argv[1], O_RDONLY | O_CLOEXEC);
    struct stat status;
    if (descriptor < 0 || fstat(descriptor, &status) != 0) {
        std::fprintf(stderr, "visit: cannot read %s: %s\n", argv[1], std::strerror(errno));
        return 1;
    }
    const size_t bytes = size_t(status.st_size);
    // Allocated once, with simdjson's padding zeroed, so parse(..., false) needs no copy; reused by every pass.
    std::unique_ptr<char[]> buffer(new char[bytes + simdjson::SIMDJSON_PADDING]);
    std::memset(buffer.get() + bytes, 0, simdjson::SIMDJSON_PADDING);
    simdjson::dom::parser parser;  // its tape and string buffer (the document) are reused by every parse
    if (auto error = parser.allocate(std::max<size_t>(bytes, 1))) {
        std::fprintf(stderr, "visit: %s: %s\n", argv[1], simdjson::error_message(error));
        return 1;
    }
    std::vector<double> rates;
    std::vector<double> parseRates;
    Visited visited;
    // Pass 0 is untimed: it faults the buffer and the parser's memory, and checks the file parses.
    for (int repetition = 0; repetition <= repetitions; repetition++) {
        const auto start = std::chrono::steady_clock::now();
        if (!readWhole(descriptor, buffer.get(), bytes)) {
            std::fprintf(stderr, "visit: cannot read %s\n", argv[1]);
            return 1;
        }
        simdjson::dom::element root;
        if (auto error = parser.parse(buffer.get(), bytes, false).get(root)) {
            std::fprintf(stderr, "visit: %s: %s\n", argv[1], simdjson::error_message(error));
            return 1;
        }
        const double parsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        visited = Visited();
        visit(root, visited);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (repetition == 0) continue;
        rates.push_back(double(bytes) / seconds / 1e6);
        parseRates.push_back(double(bytes) / parsed / 1e6);
    }
    close(descriptor);
    std::sort(rates.begin(), rates.end());
    std::sort(parseRates.begin(), parseRates.end());
    std::printf("%.0f MB/s (median of %d; range %.0f-%.0f), %zu bytes, %zu values, %zu string bytes; parse alone %.0f MB/s\n",
                rates[rates.size() / 2], repetitions, rates.front(), rates.back(), bytes, visited.values, visited.stringBytes,
                parseRates[parseRates.size() / 2]);
    return 0;
}

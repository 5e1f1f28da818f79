// fclbench times FCL 0.7 on the meshes of paper 000 §5.1's battery, as
// `sovviz bench` times sovviz on the same pairs: its mesh distance (the
// paper's baseline) and its yes/no collision test. The pairs come on stdin
// from scripts/fclbench/pairs (its doc comment has the format); see
// scripts/fclbench/run.sh, which builds both and runs them.
//
// Like `sovviz bench`: each pair's time is the median of -repeat timed passes,
// each pass going through a whole chunk of pairs before the next, one thread,
// the clock read around each query alone. Meshes and their bounding-volume
// hierarchies (OBBRSS, FCL's usual choice) are built before timing, as the
// paper excluded mesh generation. The report groups pairs by the sign of
// sovviz's exact distance and says how far the mesh distance is from it.
//
// It checks what it can of its inputs and of FCL's answers and exits 1 when
// a check fails: a mesh inscribed in a convex body lies inside it, so on a
// separated pair of convex shapes the mesh distance is never below the
// exact one; on every pair it lies within looseBound of it; and FCL's two
// queries must agree on which pairs collide.
#include <fcl/fcl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using Model = fcl::BVHModel<fcl::OBBRSSd>;
using Clock = std::chrono::steady_clock;

struct Pair {
  double exact;  // sovviz's signed distance
  bool convex;   // both shapes convex
  std::shared_ptr<Model> a, b;
  fcl::Transform3d ta, tb;
  double meshDist = 0;  // FCL's distance (first pass)
  bool collide = false;  // FCL's collision test (first pass)
  std::vector<double> tDist, tCol;  // ns, one per pass
};

// looseBound is how far the mesh distance may lie from the exact one on any
// pair: the meshes' facets sag from the surfaces by a few hundredths here
// (0.0286 at worst on the 10,000 pairs), while a mesh in a wrong pose is off
// by tenths.
constexpr double looseBound = 0.1;

bool readAll(void* p, size_t n) { return std::fread(p, 1, n, stdin) == n; }

uint32_t readU32(bool& ok) {
  unsigned char b[4] = {};
  ok = ok && readAll(b, 4);
  return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
}

bool readDoubles(double* out, size_t n) {
  // The stream is little-endian, as is every machine this runs on (checked
  // in main).
  return readAll(out, n * sizeof(double));
}

// finiteSmall reports whether x is a number a pose, vertex or distance of
// the exporter can hold (its battery spans a few units).
bool finiteSmall(double x) { return std::isfinite(x) && std::fabs(x) < 1e6; }

int die(const std::string& msg) {
  std::fprintf(stderr, "fclbench: %s\n", msg.c_str());
  return 1;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Summary of times in µs: mean ± sd, median, p99 (the value below which 99%
// of the pairs lie, as sovviz bench computes it).
struct Stats {
  size_t n = 0;
  double mean = 0, sd = 0, med = 0, p99 = 0;
};

Stats stats(std::vector<double> us) {
  Stats s;
  s.n = us.size();
  if (s.n == 0) return s;
  std::sort(us.begin(), us.end());
  double sum = 0, sq = 0;
  for (double x : us) sum += x;
  s.mean = sum / s.n;
  for (double x : us) sq += (x - s.mean) * (x - s.mean);
  s.sd = s.n > 1 ? std::sqrt(sq / (s.n - 1)) : 0;
  s.med = s.n % 2 ? us[s.n / 2] : 0.5 * (us[s.n / 2 - 1] + us[s.n / 2]);
  size_t k = size_t(std::ceil(0.99 * s.n)) - 1;
  s.p99 = us[std::min(k, s.n - 1)];
  return s;
}

// cpuName names the processor as `sovviz bench` does: the model name, with
// the family and model added when the name carries no number.
std::string cpuName() {
  FILE* f = std::fopen("/proc/cpuinfo", "r");
  if (!f) return "unknown processor";
  char line[512];
  std::string name, family, model;
  auto value = [](const char* l) {
    std::string v;
    if (const char* c = std::strchr(l, ':')) v = c + 1;
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.erase(0, 1);
    while (!v.empty() && (v.back() == '\n' || v.back() == ' ')) v.pop_back();
    return v;
  };
  while (std::fgets(line, sizeof line, f)) {
    if (line[0] == '\n') break;  // the first processor only
    if (std::strncmp(line, "model name", 10) == 0) name = value(line);
    else if (std::strncmp(line, "cpu family", 10) == 0) family = value(line);
    else if (std::strncmp(line, "model\t", 6) == 0 || std::strncmp(line, "model :", 7) == 0) model = value(line);
  }
  std::fclose(f);
  if (name.empty()) return "unknown processor";
  bool digits = std::any_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!digits && !family.empty() && !model.empty()) name += " (family " + family + ", model " + model + ")";
  return name;
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 3;
  size_t chunk = 500;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "-repeat" && i + 1 < argc) {
      repeat = std::atoi(argv[++i]);
    } else if (a == "-chunk" && i + 1 < argc) {
      chunk = size_t(std::atol(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: fclbench [-repeat R] [-chunk C] < pairs.bin  (see scripts/fclbench/run.sh)\n");
      return 2;
    }
  }
  if (repeat < 1 || repeat > 100) return die("-repeat must be in [1, 100]");
  if (chunk < 1) return die("-chunk must be at least 1");
  {
    uint16_t probe = 1;
    unsigned char lo;
    std::memcpy(&lo, &probe, 1);
    if (lo != 1) return die("this harness reads little-endian doubles and needs a little-endian machine");
  }

  char mg[8];
  if (!readAll(mg, 8) || std::memcmp(mg, "SOVFCL01", 8) != 0)
    return die("stdin is not a stream of scripts/fclbench/pairs (format SOVFCL01)");
  bool ok = true;
  uint32_t nPairs = readU32(ok), nVerts = readU32(ok), nTris = readU32(ok);
  // (The limits are the exporter's, -n at most 1,000,000, and far above the
  // paper's mesh: a corrupt header must not reserve gigabytes.)
  if (!ok || nPairs == 0 || nPairs > 1000000 || nVerts < 4 || nTris < 4 || nVerts > 1000000 || nTris > 2000000)
    return die("bad header");
  std::vector<fcl::Triangle> tris(nTris);
  for (uint32_t t = 0; t < nTris; t++) {
    uint32_t i0 = readU32(ok), i1 = readU32(ok), i2 = readU32(ok);
    if (!ok || i0 >= nVerts || i1 >= nVerts || i2 >= nVerts) return die("bad triangle " + std::to_string(t));
    tris[t] = fcl::Triangle(i0, i1, i2);
  }

  fcl::DistanceRequestd dreq(true);  // with the nearest points, as sovviz answers with its witness points
  fcl::CollisionRequestd creq;       // yes/no: one contact, no contact data
  std::vector<Pair> done;
  done.reserve(nPairs);
  double modelBytes = 0;  // the first mesh's: vertices, triangles, hierarchy

  std::vector<double> buf(12 + 3 * size_t(nVerts));
  std::vector<fcl::Vector3d> pts(nVerts);

  std::fprintf(stderr, "fclbench: %u pairs, meshes of %u vertices and %u triangles, %d passes\n", nPairs, nVerts, nTris, repeat);
  for (size_t start = 0; start < nPairs; start += chunk) {
    size_t end = std::min<size_t>(nPairs, start + chunk);
    std::vector<Pair> ps(end - start);
    for (size_t i = 0; i < ps.size(); i++) {
      Pair& p = ps[i];
      const std::string which = "pair " + std::to_string(start + i);
      unsigned char flags;
      if (!readDoubles(&p.exact, 1) || !readAll(&flags, 1)) return die("stream ended early");
      if (!finiteSmall(p.exact)) return die(which + ": exact distance " + std::to_string(p.exact));
      p.convex = flags & 1;
      for (int side = 0; side < 2; side++) {
        if (!readDoubles(buf.data(), buf.size())) return die("stream ended early");
        // FCL builds its hierarchy from whatever it gets: refuse what no
        // pose or mesh of the exporter holds rather than feed it NaNs.
        for (double x : buf)
          if (!finiteSmall(x)) return die(which + ": a pose or vertex number is " + std::to_string(x));
        fcl::Matrix3d R;
        R << buf[0], buf[1], buf[2], buf[3], buf[4], buf[5], buf[6], buf[7], buf[8];
        fcl::Transform3d tf = fcl::Transform3d::Identity();
        tf.linear() = R;
        tf.translation() = fcl::Vector3d(buf[9], buf[10], buf[11]);
        for (uint32_t v = 0; v < nVerts; v++) pts[v] = fcl::Vector3d(buf[12 + 3 * v], buf[13 + 3 * v], buf[14 + 3 * v]);
        auto m = std::make_shared<Model>();
        if (m->beginModel(int(nTris), int(nVerts)) != fcl::BVH_OK || m->addSubModel(pts, tris) != fcl::BVH_OK ||
            m->endModel() != fcl::BVH_OK)
          return die("FCL refused a mesh");
        m->computeLocalAABB();
        if (modelBytes == 0)
          modelBytes = double(m->num_vertices) * sizeof(fcl::Vector3d) + double(m->num_tris) * (sizeof(fcl::Triangle) + sizeof(unsigned int)) +
                       double(m->getNumBVs()) * sizeof(fcl::BVNode<fcl::OBBRSSd>);
        (side == 0 ? p.a : p.b) = m;
        (side == 0 ? p.ta : p.tb) = tf;
      }
    }
    for (int pass = 0; pass < repeat; pass++) {
      for (auto& p : ps) {
        fcl::DistanceResultd r;
        auto t0 = Clock::now();
        double d = fcl::distance(p.a.get(), p.ta, p.b.get(), p.tb, dreq, r);
        auto t1 = Clock::now();
        p.tDist.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count());
        if (pass == 0) p.meshDist = d;
      }
    }
    for (int pass = 0; pass < repeat; pass++) {
      for (auto& p : ps) {
        fcl::CollisionResultd r;
        auto t0 = Clock::now();
        fcl::collide(p.a.get(), p.ta, p.b.get(), p.tb, creq, r);
        auto t1 = Clock::now();
        p.tCol.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count());
        if (pass == 0) p.collide = r.isCollision();
      }
    }
    for (auto& p : ps) {
      p.a.reset();  // the hierarchies are large: keep only the results
      p.b.reset();
      done.push_back(std::move(p));
    }
    std::fprintf(stderr, "fclbench: %zu/%u pairs\n", done.size(), nPairs);
  }
  if (std::fgetc(stdin) != EOF) return die("more data after the last pair");

  // Checks.
  int failures = 0;
  size_t belowExact = 0, disagree = 0, farOff = 0, convexSep = 0;
  double worstBelow = 0, worstOff = 0;
  for (size_t i = 0; i < done.size(); i++) {
    const Pair& p = done[i];
    if (!std::isfinite(p.meshDist)) {
      std::fprintf(stderr, "fclbench: pair %zu: FCL's distance is %g\n", i, p.meshDist);
      failures++;
    }
    if (p.convex && p.exact > 0) convexSep++;
    if (p.convex && p.exact > 0 && p.meshDist < p.exact - 1e-9) {
      belowExact++;
      worstBelow = std::max(worstBelow, p.exact - p.meshDist);
    }
    if (p.collide != (p.meshDist <= 0)) disagree++;
    // Every pair: the meshes' distance within looseBound of the exact one
    // (of 0 when the bodies overlap), whatever the shapes.
    double off = std::fabs(p.meshDist - std::max(p.exact, 0.0));
    if (!(off <= looseBound)) {
      farOff++;
      worstOff = std::max(worstOff, off);
    }
  }
  if (farOff > 0) {
    std::fprintf(stderr,
                 "fclbench: on %zu pairs the mesh distance is more than %g from the exact one (up to %.3g): "
                 "far more than the facets' sag; the meshes or poses are wrong\n",
                 farOff, looseBound, worstOff);
    failures++;
  }
  if (belowExact > 0) {
    std::fprintf(stderr,
                 "fclbench: %zu separated pairs of convex shapes have a mesh distance below the exact one (by up to %.3g): "
                 "an inscribed mesh cannot; the meshes or poses are wrong\n",
                 belowExact, worstBelow);
    failures++;
  }
  if (disagree > 0) {
    std::fprintf(stderr, "fclbench: on %zu pairs FCL's collision test and its distance disagree on contact\n", disagree);
    failures++;
  }

  // Report.
  std::printf("# FCL %s on paper 000 §5.1's battery\n\n", FCL_VERSION);
  std::printf("%u pairs, each shape a mesh of %u vertices and %u triangles with every vertex on the surface, "
              "its bounding-volume hierarchy OBBRSS.\n",
              nPairs, nVerts, nTris);
  std::printf("This machine: %s; one thread; each query timed alone with std::chrono::steady_clock. "
              "A pair's time is the median of %d passes.\n",
              cpuName().c_str(), repeat);
  std::printf("Pairs are grouped by the sign of sovviz's exact distance. Times in µs.\n\n");
  std::printf("| FCL query | pairs | mean ± sd | median | p99 |\n|---|---|---|---|---|\n");
  for (int q = 0; q < 2; q++) {
    for (int sep = 0; sep < 2; sep++) {
      std::vector<double> us;
      for (const Pair& p : done)
        if ((p.exact > 0) == (sep == 1)) us.push_back(median(q == 0 ? p.tDist : p.tCol) / 1e3);
      Stats s = stats(us);
      std::printf("| %s, %s pairs | %zu | %.2f ± %.2f | %.2f | %.2f |\n", q == 0 ? "mesh distance" : "collision test (yes/no)",
                  sep ? "separated" : "overlapping", s.n, s.mean, s.sd, s.med, s.p99);
    }
  }
  std::vector<double> err;
  size_t ovl = 0, ovlCollide = 0, sepCollide = 0, sepBelow = 0;
  for (const Pair& p : done) {
    if (p.exact > 0) {
      err.push_back(std::fabs(p.meshDist - p.exact));
      if (p.meshDist < p.exact) sepBelow++;
      if (p.collide) sepCollide++;
    } else {
      ovl++;
      if (p.collide) ovlCollide++;
    }
  }
  Stats e = stats(err);
  std::printf("\nAccuracy against sovviz's exact distance: on the %zu separated pairs the mesh distance is off by "
              "%.3g (median), %.3g (p99), %.3g (max; every vertex lies on the surface, the facets cut inside), "
              "and below the exact distance on %zu of them.\n",
              e.n, e.med, e.p99, err.empty() ? 0.0 : *std::max_element(err.begin(), err.end()), sepBelow);
  std::printf("Of the %zu overlapping pairs the meshes collide in %zu (the others overlap by less than the facets "
              "cut off); %zu separated pairs collide as meshes.\n",
              ovl, ovlCollide, sepCollide);
  std::printf("Memory: one mesh with its hierarchy holds %.1f KB (vertices, triangles, primitive indices and %d "
              "bounding volumes of %zu bytes each).\n",
              modelBytes / 1024, int((modelBytes - nVerts * sizeof(fcl::Vector3d) - nTris * (sizeof(fcl::Triangle) + sizeof(unsigned int))) /
                                     sizeof(fcl::BVNode<fcl::OBBRSSd>)),
              sizeof(fcl::BVNode<fcl::OBBRSSd>));
  std::printf("Checks %s: the mesh distance not below the exact one on the %zu separated pairs of convex shapes, "
              "within %g of it (of 0 when overlapping) on all %zu pairs, and 0 exactly where the collision test says "
              "yes.\n",
              failures ? "FAILED (the messages on stderr say which)" : "passed", convexSep, looseBound, done.size());
  // (Printed only when some pair collides: a scene of separated pairs has
  // nothing to say here.)
  double lo = INFINITY, hi = -INFINITY;
  for (const Pair& p : done)
    if (p.collide) lo = std::min(lo, p.meshDist), hi = std::max(hi, p.meshDist);
  if (lo == hi)
    std::printf("FCL reports no penetration depth for meshes: its distance is %g on every colliding pair.\n", lo);
  else if (lo < hi)
    std::printf("FCL reports no penetration depth for meshes: its distance on the colliding pairs lies in [%g, %g].\n", lo, hi);
  return failures ? 1 : 0;
}

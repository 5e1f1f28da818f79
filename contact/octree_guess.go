package contact

// octreeGuess finds the closest pair of boundary cells of the two shapes'
// octrees. TEMPORARY: reports false (quadtree used) until geom's octree lands.
func (sv *Solver) octreeGuess(pr *pair, res *Result) (lp, lq vec, ok bool) {
	return vec{}, vec{}, false
}

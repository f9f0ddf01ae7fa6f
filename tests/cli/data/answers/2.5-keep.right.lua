-- cudaMemPoolAttrReleaseThreshold = UINT64_MAX: never release at synchronisation
function keep_memory(pool)
  pool:set_release_threshold("max")
end

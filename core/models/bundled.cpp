#include "lockstep/models/bundled.h"

#include "lockstep/core/model.h"
#include "station/station.h"
#include "wander/wander.h"
#include "warriors/warriors.h"

namespace lockstep {

void register_bundled_models() {
  register_model_type<station::StationModel>();
  register_model_type<wander::WanderModel>();
  register_model_type<warriors::WarriorsModel>();
}

}  // namespace lockstep
